package io.statecast.messagestore.event;

import net.sf.saxon.om.GenericTreeInfo;

/**
 * The Saxon {@link net.sf.saxon.om.TreeInfo} of one instance's history document. Its
 * configuration must be the one that compiled the spec's queries (Saxon refuses nodes of another).
 */
final class HistTree extends GenericTreeInfo {

    private final HistoryNames names;

    HistTree(HistoryNames names) {
        super(names.configuration());
        this.names = names;
    }

    HistoryNames names() {
        return names;
    }

    /** Every named node of a history carries its fingerprint. */
    @Override
    public boolean isFingerprinted() {
        return true;
    }
}
