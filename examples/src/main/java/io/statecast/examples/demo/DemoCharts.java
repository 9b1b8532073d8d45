package io.statecast.examples.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.Color;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The blueprint's figures for one run (chapter 6: Figures 6.3, 6.4, 6.5), as PNG files drawn with
 * JFreeChart: sequence number versus time (sent and received), per-message delay versus sequence
 * number, and the 500-message moving-window throughput versus time. Time is seconds since node 1
 * sent the first message, as in the blueprint.
 */
final class DemoCharts {

    static final String SEQUENCE = "sequence-vs-time.png";
    static final String DELAY = "delay-vs-sequence.png";
    static final String THROUGHPUT = "throughput-vs-time.png";

    private static final int WIDTH = 1200;
    private static final int HEIGHT = 700;
    private static final Color[] COLOURS = {
        new Color(0xd62728), new Color(0x2ca02c), new Color(0x1f77b4), new Color(0x9467bd), new Color(0xff7f0e),
        new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf), new Color(0xbcbd22), new Color(0x7f7f7f)
    };

    private DemoCharts() {
    }

    /**
     * Writes the three charts into {@code dir}.
     *
     * @param sender    node 1's ttcp report
     * @param receivers the receivers' ttcp reports, nodes 2.. in order
     * @param nodes     every node's outcome (for the legend's addresses)
     * @return the files written
     */
    static List<Path> write(Path dir, JsonNode sender, List<JsonNode> receivers, List<DemoReport.NodeOutcome> nodes)
            throws IOException {
        Files.createDirectories(dir);
        long origin = sender.path("firstSentMicros").asLong(0);
        List<Path> files = new ArrayList<>();

        XYSeriesCollection seq = new XYSeriesCollection();
        XYSeries sent = new XYSeries("sent by node 1 " + nodes.get(0).address(), false, true);
        JsonNode sentMicros = sender.path("messages").path("sentMicros");
        for (int i = 0; i < sentMicros.size(); i++) {
            sent.add((sentMicros.get(i).asLong() - origin) / 1e6, i, false);
        }
        seq.addSeries(sent);
        XYSeriesCollection delay = new XYSeriesCollection();
        XYSeriesCollection throughput = new XYSeriesCollection();
        for (int r = 0; r < receivers.size(); r++) {
            JsonNode rep = receivers.get(r);
            String label = "node " + (r + 2) + " " + nodes.get(r + 1).address();
            JsonNode m = rep.path("messages");
            JsonNode s = m.path("seq");
            JsonNode recv = m.path("receivedMicros");
            JsonNode d = m.path("delayMs");
            XYSeries rs = new XYSeries("received at " + label, false, true);
            XYSeries ds = new XYSeries(label, false, true);
            for (int i = 0; i < s.size(); i++) {
                rs.add((recv.get(i).asLong() - origin) / 1e6, s.get(i).asLong(), false);
                ds.add(s.get(i).asLong(), d.get(i).asDouble(), false);
            }
            seq.addSeries(rs);
            delay.addSeries(ds);
            JsonNode tp = rep.path("throughput");
            JsonNode at = tp.path("receivedMicros");
            JsonNode kbps = tp.path("kbps");
            XYSeries ts = new XYSeries(label, false, true);
            for (int i = 0; i < kbps.size(); i++) {
                ts.add((at.get(i).asLong() - origin) / 1e6, kbps.get(i).asDouble() / 1e3, false);
            }
            throughput.addSeries(ts);
        }
        // node k has the same colour in every chart: series 0 of the sequence chart is node 1's
        files.add(save(dir.resolve(SEQUENCE), chart("Sequence number versus time", "time since the first send (s)",
                "sequence number", seq, 0)));
        files.add(save(dir.resolve(DELAY), chart("Per-message delay versus sequence number", "sequence number",
                "delay from the send at node 1 to the application (ms)", delay, 1)));
        files.add(save(dir.resolve(THROUGHPUT), chart("Receiver throughput versus time (window of 500 messages)",
                "time since the first send (s)", "throughput (Mbit/s)", throughput, 1)));
        return files;
    }

    /** A scatter plot, as the blueprint's figures are: lines would bridge the gaps a repair leaves. */
    private static JFreeChart chart(String title, String x, String y, XYSeriesCollection data, int firstColour) {
        for (int i = 0; i < data.getSeriesCount(); i++) {
            data.getSeries(i).fireSeriesChanged(); // the points were added without events, for speed
        }
        NumberAxis xAxis = new NumberAxis(x);
        xAxis.setAutoRangeIncludesZero(true);
        NumberAxis yAxis = new NumberAxis(y);
        yAxis.setAutoRangeIncludesZero(true);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(false, true);
        Rectangle2D dot = new Rectangle2D.Double(-1, -1, 2, 2);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            renderer.setSeriesPaint(i, COLOURS[(i + firstColour) % COLOURS.length]);
            renderer.setSeriesShape(i, dot);
        }
        XYPlot plot = new XYPlot(data, xAxis, yAxis, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xdddddd));
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    private static Path save(Path file, JFreeChart chart) throws IOException {
        ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
        return file;
    }
}
