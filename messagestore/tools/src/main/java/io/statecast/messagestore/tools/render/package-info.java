/**
 * {@code statecast spec render}: a spec's state diagram as the blueprint draws it.
 * {@link io.statecast.messagestore.tools.render.StateDiagram} is what is shown,
 * {@link io.statecast.messagestore.tools.render.DiagramLayout} places it with the Eclipse Layout
 * Kernel, and {@link io.statecast.messagestore.tools.render.SvgWriter} and
 * {@link io.statecast.messagestore.tools.render.PngWriter} draw the layout;
 * {@link io.statecast.messagestore.tools.render.DotWriter} and
 * {@link io.statecast.messagestore.tools.render.MermaidWriter} write text for other tools.
 * Entry point {@link io.statecast.messagestore.tools.render.Renderer}.
 */
package io.statecast.messagestore.tools.render;
