package io.statecast.messagestore.tools.lint;

/** One lint analysis of a loaded spec. */
interface Check {

    /** Runs the analysis and reports through the context. */
    void run(LintContext ctx);
}
