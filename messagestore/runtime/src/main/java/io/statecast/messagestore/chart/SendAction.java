package io.statecast.messagestore.chart;

import org.w3c.dom.Element;

/**
 * {@code <send>} through the SCXML event I/O processor, to this session only: its external queue
 * (no target, or {@code #_scxml_} and its own session id) or its internal queue
 * ({@code #_internal}), at once or after a delay run on the host's timers. Any other target is
 * refused with {@code error.communication} (another session) or {@code error.execution}
 * (a target or type this processor does not support).
 */
record SendAction(String event, Expr eventExpr, String target, Expr targetExpr, String type, Expr typeExpr,
        String id, Expr idLocation, long delayMillis, Expr delayExpr, String[] namelist, Param[] params,
        Expr contentExpr, Element content) implements Action {

    /** The SCXML event I/O processor's type URI. */
    static final String SCXML_PROCESSOR = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor";

    @Override
    public void run(Session session) throws ChartError {
        XPathData data = session.data();
        String sendId = id;
        if (idLocation != null) {
            sendId = session.newSendId();
            data.assignString(idLocation, sendId);
        }
        try {
            String name = eventExpr != null ? data.string(eventExpr) : event;
            String to = targetExpr != null ? data.string(targetExpr) : target;
            String via = typeExpr != null ? data.string(typeExpr) : type;
            long delay = delayExpr != null ? Delays.parse(data.string(delayExpr), delayExpr.where()) : delayMillis;
            Element payload = data.payload(namelist, params, contentExpr, content);
            if (via != null && !via.equals(SCXML_PROCESSOR) && !via.equals("scxml")) {
                throw new ChartError("error.execution", "send type '" + via + "' is not supported", sendId);
            }
            boolean internal;
            if (to == null || to.isEmpty() || to.equals("#_scxml_" + session.sessionId())) {
                internal = false;
            } else if (to.equals("#_internal")) {
                internal = true;
            } else if (to.startsWith("#_")) {
                throw new ChartError("error.communication", "send target '" + to + "' cannot be reached", sendId);
            } else {
                throw new ChartError("error.execution", "send target '" + to + "' is not supported", sendId);
            }
            if (name == null) {
                throw new ChartError("error.execution", "send has no event name", sendId);
            }
            ChartEvent e = new ChartEvent(name, ChartEvent.Type.EXTERNAL, sendId,
                    "#_scxml_" + session.sessionId(), SCXML_PROCESSOR, null, payload);
            session.dispatch(e, internal, delay);
        } catch (ChartError e) {
            throw e.sendId == null && sendId != null ? new ChartError(e.event, e.getMessage(), sendId) : e;
        }
    }
}
