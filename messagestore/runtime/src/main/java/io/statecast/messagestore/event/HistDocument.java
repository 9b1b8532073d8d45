package io.statecast.messagestore.event;

import java.util.List;
import net.sf.saxon.str.EmptyUnicodeString;
import net.sf.saxon.str.UnicodeString;
import net.sf.saxon.type.SchemaType;
import net.sf.saxon.type.Type;
import net.sf.saxon.type.Untyped;

/** The document node of a history document; its only child is {@code <HistoryOfEvents>}. */
final class HistDocument extends HistNode {

    private List<HistNode> children = List.of();

    HistDocument(HistTree tree) {
        super(tree, 0);
    }

    void setRootElement(HistElement root) {
        children = List.of(root);
    }

    @Override
    HistNode parentNode() {
        return null;
    }

    @Override
    List<? extends HistNode> childList() {
        return children;
    }

    @Override
    public int getNodeKind() {
        return Type.DOCUMENT;
    }

    @Override
    public UnicodeString getUnicodeStringValue() {
        return children.isEmpty() ? EmptyUnicodeString.getInstance() : children.get(0).getUnicodeStringValue();
    }

    @Override
    public SchemaType getSchemaType() {
        return Untyped.INSTANCE;
    }
}
