package io.statecast.specserver;

import java.nio.charset.StandardCharsets;

/** Spec documents for tests, in the form {@link BasicSpecCheck} accepts. */
final class TestSpecs {

    private TestSpecs() {
    }

    /** A valid spec for {@code serviceId} named {@code name}. */
    static byte[] spec(int serviceId, String name) {
        return spec(serviceId, name, "");
    }

    /** A valid spec with {@code padding} in a comment, to vary content and size. */
    static byte[] spec(int serviceId, String name, String padding) {
        return ("<?xml version=\"1.0\"?>\n"
                + "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" initial=\"init\">\n"
                + "  <datamodel>\n"
                + "    <data id=\"service\">\n"
                + "      <name>" + name + "</name>\n"
                + "      <serviceID>" + serviceId + "</serviceID>\n"
                + "      <scope>message</scope>\n"
                + "    </data>\n"
                + "  </datamodel>\n"
                + "  <state id=\"init\"/>\n"
                + "  <!-- " + padding + " -->\n"
                + "</scxml>\n").getBytes(StandardCharsets.UTF_8);
    }

    /** A valid spec of at least {@code size} bytes. */
    static byte[] specOfSize(int serviceId, String name, int size) {
        int base = spec(serviceId, name).length;
        return spec(serviceId, name, "x".repeat(Math.max(0, size - base)));
    }
}
