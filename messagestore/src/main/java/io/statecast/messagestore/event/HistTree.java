package io.statecast.messagestore.event;

import net.sf.saxon.Configuration;
import net.sf.saxon.om.GenericTreeInfo;

/**
 * The Saxon {@link net.sf.saxon.om.TreeInfo} of one instance's history document. Its
 * configuration must be the one that compiled the spec's queries (Saxon refuses nodes of another).
 */
final class HistTree extends GenericTreeInfo {

    HistTree(Configuration configuration) {
        super(configuration);
    }
}
