/**
 * The statechart engine: an SCXML document compiled once into an immutable {@link
 * io.statecast.messagestore.chart.Chart} (states, transitions, executable content, XPath
 * expressions compiled by Saxon), and {@link io.statecast.messagestore.chart.Session}, one running
 * machine that executes it with the W3C SCXML 1.0 Recommendation's algorithm (Appendix D) and its
 * XPath datamodel (Appendix B.2).
 *
 * <p>What runs where: the document is read by the project's hardened parser; everything that
 * executes is this package's compiled form. Commons SCXML is not on this path.
 */
package io.statecast.messagestore.chart;
