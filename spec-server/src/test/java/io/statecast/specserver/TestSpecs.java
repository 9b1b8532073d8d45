package io.statecast.specserver;

import java.nio.charset.StandardCharsets;

/** Spec documents for tests. */
final class TestSpecs {

    private TestSpecs() {
    }

    /** A valid spec for {@code serviceId} named {@code name}. */
    static byte[] spec(int serviceId, String name) {
        return spec(serviceId, name, "");
    }

    /**
     * A valid spec (in the format of docs/spec-format.md, accepted by both {@link BasicSpecCheck}
     * and {@link MessageStoreSpecCheck}) with {@code padding} in a comment, to vary content and size.
     */
    static byte[] spec(int serviceId, String name, String padding) {
        return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<scxml version=\"1.0\" xmlns=\"http://www.w3.org/2005/07/scxml\"\n"
                + "       xmlns:action=\"http://my.custom-actions.domain/action\" initialstate=\"idle\">\n"
                + "  <datamodel>\n"
                + "    <data name=\"service\">\n"
                + "      <ServiceName>" + name + "</ServiceName>\n"
                + "      <ServiceID>" + serviceId + "</ServiceID>\n"
                + "      <DeliveryMode>unicast</DeliveryMode>\n"
                + "      <Scope>message</Scope>\n"
                + "    </data>\n"
                + "    <data name=\"events\">\n"
                + "      <Basic>\n"
                + "        <Event name=\"hello\"><Message><MessageType>5</MessageType></Message></Event>\n"
                + "      </Basic>\n"
                + "    </data>\n"
                + "  </datamodel>\n"
                + "  <state id=\"idle\">\n"
                + "    <transition event=\"hello\" target=\"done\"/>\n"
                + "  </state>\n"
                + "  <state id=\"done\"/>\n"
                + "  <!-- " + padding + " -->\n"
                + "</scxml>\n").getBytes(StandardCharsets.UTF_8);
    }

    /** A valid spec of at least {@code size} bytes. */
    static byte[] specOfSize(int serviceId, String name, int size) {
        int base = spec(serviceId, name).length;
        return spec(serviceId, name, "x".repeat(Math.max(0, size - base)));
    }
}
