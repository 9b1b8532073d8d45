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

    /**
     * A valid spec with a {@code <Description>} and parameters; {@code description} and the
     * parameter texts are XML-escaped here, so the document carries them as text, whatever they hold.
     *
     * @param parameters name, type, default, description of each parameter
     */
    static byte[] described(int serviceId, String name, String description, String[]... parameters) {
        StringBuilder params = new StringBuilder();
        if (parameters.length > 0) {
            params.append("    <data name=\"parameters\">\n");
            for (String[] p : parameters) {
                params.append("      <Parameter name=\"").append(xml(p[0])).append("\" type=\"").append(xml(p[1]))
                        .append("\" default=\"").append(xml(p[2])).append("\">").append(xml(p[3])).append("</Parameter>\n");
            }
            params.append("    </data>\n");
        }
        String doc = new String(spec(serviceId, xml(name)), StandardCharsets.UTF_8)
                .replace("      <Scope>message</Scope>\n", "      <Scope>message</Scope>\n      <Description>" + xml(description) + "</Description>\n")
                .replace("    <data name=\"events\">", params + "    <data name=\"events\">");
        return doc.getBytes(StandardCharsets.UTF_8);
    }

    /** Escapes text for XML content and attributes. */
    static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
