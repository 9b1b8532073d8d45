package io.statecast.messagestore.event;

import net.sf.saxon.str.UnicodeString;
import net.sf.saxon.type.SchemaType;
import net.sf.saxon.type.Type;
import net.sf.saxon.type.BuiltInAtomicType;

/** The text child of a {@link HistLeaf}. */
final class HistText extends HistNode {

    private final HistLeaf parent;

    HistText(HistLeaf parent) {
        super(parent.tree, parent.seq + 15);
        this.parent = parent;
    }

    @Override
    HistNode parentNode() {
        return parent;
    }

    @Override
    public int getNodeKind() {
        return Type.TEXT;
    }

    @Override
    public UnicodeString getUnicodeStringValue() {
        return parent.getUnicodeStringValue();
    }

    @Override
    public SchemaType getSchemaType() {
        return BuiltInAtomicType.UNTYPED_ATOMIC;
    }
}
