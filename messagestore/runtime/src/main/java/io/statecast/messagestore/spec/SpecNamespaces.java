package io.statecast.messagestore.spec;

/** Namespace URIs of spec documents. */
public final class SpecNamespaces {

    /** SCXML, as Commons SCXML 0.9 and the blueprint use it; our datamodel sections are in it too. */
    public static final String SCXML = "http://www.w3.org/2005/07/scxml";

    /**
     * The action elements (create, set, execute): the blueprint's URI, kept so its listings load
     * unchanged. An identifier only; never dereferenced.
     */
    public static final String ACTION = "http://my.custom-actions.domain/action";

    /** Commons SCXML's own extension namespace (var, exit): refused in specs. */
    public static final String COMMONS_SCXML = "http://commons.apache.org/scxml";

    /**
     * The signature element ({@code <sig:signature key="…" value="…"/>}) a signed spec carries as a
     * child of its root; {@link SpecCanonicalForm} defines what it signs. The loader ignores that
     * element there and refuses it anywhere else.
     */
    public static final String SIGNATURE = "urn:statecast:signature:1";

    private SpecNamespaces() {
    }
}
