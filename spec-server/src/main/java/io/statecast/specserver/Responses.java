package io.statecast.specserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Builds the server's responses. Every response carries its length and {@code nosniff}; error
 * bodies are JSON {@code {"status":N,"error":"..."}}, validation failures add
 * {@code "problems":[{"line","column","message"}]}. Who sends a response decides keep-alive.
 */
final class Responses {

    /** Media type of a stored document. */
    static final String SCXML_TYPE = "application/scxml+xml";
    private static final String JSON_TYPE = "application/json; charset=utf-8";
    private static final String HTML_TYPE = "text/html; charset=utf-8";

    private final ObjectMapper json;

    Responses(ObjectMapper json) {
        this.json = json;
    }

    /** @return the mapper, for building bodies */
    ObjectMapper json() {
        return json;
    }

    FullHttpResponse json(HttpResponseStatus status, Object body) {
        try {
            return bytes(status, JSON_TYPE, json.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a response body", e);
        }
    }

    FullHttpResponse error(HttpResponseStatus status, String message) {
        ObjectNode body = json.createObjectNode();
        body.put("status", status.code());
        body.put("error", message);
        return json(status, body);
    }

    FullHttpResponse problems(HttpResponseStatus status, String message, List<SpecProblem> problems) {
        ObjectNode body = json.createObjectNode();
        body.put("status", status.code());
        body.put("error", message);
        ArrayNode list = body.putArray("problems");
        for (SpecProblem p : problems) {
            ObjectNode o = list.addObject();
            o.put("line", p.line());
            o.put("column", p.column());
            o.put("message", p.message());
        }
        return json(status, body);
    }

    FullHttpResponse html(String page) {
        FullHttpResponse r = bytes(HttpResponseStatus.OK, HTML_TYPE, page.getBytes(StandardCharsets.UTF_8));
        r.headers().set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
        return r;
    }

    FullHttpResponse bytes(HttpResponseStatus status, String contentType, byte[] body) {
        return withBody(status, contentType, Unpooled.wrappedBuffer(body));
    }

    FullHttpResponse empty(HttpResponseStatus status) {
        return withBody(status, null, Unpooled.EMPTY_BUFFER);
    }

    private static FullHttpResponse withBody(HttpResponseStatus status, String contentType, ByteBuf body) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        if (contentType != null) {
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        r.headers().set("X-Content-Type-Options", "nosniff");
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
        return r;
    }
}
