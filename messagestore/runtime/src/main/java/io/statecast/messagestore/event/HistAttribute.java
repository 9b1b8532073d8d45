package io.statecast.messagestore.event;

import net.sf.saxon.str.StringView;
import net.sf.saxon.str.UnicodeString;
import net.sf.saxon.type.BuiltInAtomicType;
import net.sf.saxon.type.SchemaType;
import net.sf.saxon.type.Type;

/** An attribute of a {@link HistElement}. */
final class HistAttribute extends HistNode {

    private final HistElement parent;
    private final String name;
    private final String value;
    private final int fingerprint;

    HistAttribute(HistElement parent, int index, String name, String value) {
        super(parent.tree, parent.seq + 1 + index);
        this.parent = parent;
        this.name = name;
        this.value = value;
        this.fingerprint = tree.names().fingerprint(name);
    }

    @Override
    public int getFingerprint() {
        return fingerprint;
    }

    @Override
    HistNode parentNode() {
        return parent;
    }

    @Override
    public int getNodeKind() {
        return Type.ATTRIBUTE;
    }

    @Override
    public String getLocalPart() {
        return name;
    }

    @Override
    public UnicodeString getUnicodeStringValue() {
        return StringView.of(value);
    }

    @Override
    public String getStringValue() {
        return value;
    }

    @Override
    public boolean hasChildNodes() {
        return false;
    }

    @Override
    public SchemaType getSchemaType() {
        return BuiltInAtomicType.UNTYPED_ATOMIC;
    }
}
