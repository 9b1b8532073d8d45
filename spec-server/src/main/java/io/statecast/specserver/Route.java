package io.statecast.specserver;

import io.netty.handler.codec.http.HttpMethod;
import java.util.Optional;
import java.util.Set;

/**
 * What a request target names, independent of the method. The query string is ignored; paths are
 * matched exactly (no trailing slash, no percent-decoding: ids are plain digits).
 *
 * <pre>
 *   /                  Index            GET HEAD                 ?page=N: one page of the HTML catalogue
 *   /catalogue/{id}    CataloguePage    GET HEAD                 the HTML page of one service
 *   /health            Health           GET HEAD
 *   /services          ServiceList      GET HEAD
 *   /services/{id}     Service          GET HEAD PUT DELETE      id: canonical decimal in [0, 2^31-1]
 *   /services/{id}/history          History   GET HEAD           kept versions and audit entries
 *   /services/{id}/history/{sha256} Version   GET HEAD POST      one kept version; POST restores it
 *   /services/{junk}   BadServiceId     (400)
 *   anything else      Unknown          (404)
 * </pre>
 */
sealed interface Route {

    /** The HTML page. */
    record Index() implements Route {
    }

    /** The liveness document. */
    record Health() implements Route {
    }

    /** The JSON list of services. */
    record ServiceList() implements Route {
    }

    /** @param serviceId one service */
    record Service(int serviceId) implements Route {
    }

    /** @param serviceId the service whose HTML catalogue page is asked for */
    record CataloguePage(int serviceId) implements Route {
    }

    /** @param serviceId the service whose versions and audit entries are asked for */
    record History(int serviceId) implements Route {
    }

    /**
     * @param serviceId the service
     * @param sha256 a version of it, lower-case hex
     */
    record Version(int serviceId, String sha256) implements Route {
    }

    /** @param segment the path segment that is not a canonical ServiceID */
    record BadServiceId(String segment) implements Route {
    }

    /** A path the API does not have. */
    record Unknown() implements Route {
    }

    /** Methods on read-only resources. */
    Set<HttpMethod> READ_ONLY = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);
    /** Methods on one service. */
    Set<HttpMethod> SERVICE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.OPTIONS);

    /** Methods on one kept version. */
    Set<HttpMethod> VERSION = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST, HttpMethod.OPTIONS);

    /** @return the methods this resource supports, for 405 and the {@code Allow} header */
    default Set<HttpMethod> allowed() {
        return this instanceof Service ? SERVICE : this instanceof Version ? VERSION : READ_ONLY;
    }

    /** @return the {@code Allow} header value */
    default String allowHeader() {
        return this instanceof Service ? "GET, HEAD, PUT, DELETE, OPTIONS"
                : this instanceof Version ? "GET, HEAD, POST, OPTIONS" : "GET, HEAD, OPTIONS";
    }

    /**
     * @param uri the request target as received
     * @return the route it names
     */
    static Route of(String uri) {
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        int hash = path.indexOf('#');
        if (hash >= 0) {
            path = path.substring(0, hash);
        }
        switch (path) {
            case "/":
                return new Index();
            case "/health":
                return new Health();
            case "/services":
                return new ServiceList();
            default:
                break;
        }
        if (path.startsWith(CATALOGUE)) {
            return idRoute(path.substring(CATALOGUE.length()), CataloguePage::new);
        }
        if (path.startsWith(SERVICES)) {
            String segment = path.substring(SERVICES.length());
            String[] parts = segment.split("/", -1);
            if (parts.length == 2 || parts.length == 3) {
                Optional<Integer> id = SpecStore.parseServiceId(parts[0]);
                if (id.isEmpty() || !parts[1].equals("history")) {
                    return id.isEmpty() ? new BadServiceId(parts[0]) : new Unknown();
                }
                if (parts.length == 2) {
                    return new History(id.get());
                }
                return SpecHistory.isSha256(parts[2]) ? new Version(id.get(), parts[2]) : new Unknown();
            }
            return idRoute(segment, Service::new);
        }
        return new Unknown();
    }

    /** Path prefix of one service's document. */
    String SERVICES = "/services/";
    /** Path prefix of one service's HTML page. */
    String CATALOGUE = "/catalogue/";

    private static Route idRoute(String segment, java.util.function.IntFunction<Route> route) {
        if (segment.isEmpty() || segment.indexOf('/') >= 0) {
            return new Unknown();
        }
        Optional<Integer> id = SpecStore.parseServiceId(segment);
        return id.map(route::apply).orElseGet(() -> new BadServiceId(segment));
    }

    /**
     * Whether a request needs authorization before its body is read: every method except the
     * safe ones (GET, HEAD, OPTIONS), so an unauthorized client can never make the server read a
     * body, and a method the resource lacks is revealed (405) only to an authorized one.
     *
     * @param method request method
     * @return true unless GET, HEAD or OPTIONS
     */
    static boolean needsAuthorization(HttpMethod method) {
        return !(HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method) || HttpMethod.OPTIONS.equals(method));
    }
}
