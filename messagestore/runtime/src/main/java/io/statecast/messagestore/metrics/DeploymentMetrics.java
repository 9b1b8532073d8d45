package io.statecast.messagestore.metrics;

/**
 * Counters of run-time deployment (blueprint §5.2): on-demand downloads of unknown services'
 * specs, the Service Request messages (MessageType -1) this node sent and received, and the specs
 * it published to the spec server. Every count is since the store was created; all zero when no
 * spec server is configured ({@link #NONE}).
 *
 * @param downloadsStarted      unknown services whose spec this node set out to obtain
 * @param downloadAttempts      HTTP downloads tried (the first and every retry)
 * @param downloadsInstalled    specs downloaded, validated and installed
 * @param downloadsNotFound     downloads answered 404 (the server has no such service)
 * @param downloadsRefused      downloaded specs refused (invalid, or declaring another ServiceID)
 * @param downloadsUntrusted    downloaded specs refused because the store trusts signing keys and the
 *                              spec is not validly signed by one of them
 * @param downloadsFailed       downloads that failed otherwise (I/O, timeout, status, ETag)
 * @param downloadsAbandoned    unknown services given up after the configured number of tries
 * @param heldDropped           held messages dropped because their service was given up
 * @param requestsSent          Service Request messages sent to a held message's source
 * @param requestsReceived      Service Request messages received as their destination
 * @param requestsAnswered      of those, how many made this node publish the spec and left it on the
 *                              server (stored, or found there identical already)
 * @param requestsIgnored       received requests not acted on: service not loaded here, no
 *                              document kept for it, publishing not permitted, or not a unicast
 *                              addressed to this node
 * @param requestsThrottled     received requests not acted on because the same ServiceID was
 *                              published (or was being published) recently, or the rate limit
 *                              on publishes was reached
 * @param publishes             specs stored on the server by this node (201 or 200)
 * @param publishesAlreadyThere publishes that found the identical document stored already
 * @param publishConflicts      publishes that found another version stored (never overwritten)
 * @param publishFailures       publishes that failed (refused, unauthorized, I/O, timeout)
 */
public record DeploymentMetrics(long downloadsStarted, long downloadAttempts, long downloadsInstalled,
        long downloadsNotFound, long downloadsRefused, long downloadsUntrusted, long downloadsFailed, long downloadsAbandoned,
        long heldDropped, long requestsSent, long requestsReceived, long requestsAnswered, long requestsIgnored,
        long requestsThrottled, long publishes, long publishesAlreadyThere, long publishConflicts,
        long publishFailures) {

    /** No spec server: nothing ever counted. */
    public static final DeploymentMetrics NONE = new DeploymentMetrics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Appends a one-line summary. */
    public void format(StringBuilder out, String indent) {
        out.append(indent).append("deployment: downloads started ").append(downloadsStarted)
                .append(", attempts ").append(downloadAttempts).append(", installed ").append(downloadsInstalled)
                .append(", not found ").append(downloadsNotFound).append(", refused ").append(downloadsRefused)
                .append(", untrusted ").append(downloadsUntrusted)
                .append(", failed ").append(downloadsFailed).append(", abandoned ").append(downloadsAbandoned)
                .append(" (held messages dropped ").append(heldDropped).append("); service requests sent ")
                .append(requestsSent).append(", received ").append(requestsReceived).append(", answered ")
                .append(requestsAnswered).append(", ignored ").append(requestsIgnored).append(", throttled ")
                .append(requestsThrottled).append("; publishes ").append(publishes).append(", already there ")
                .append(publishesAlreadyThere).append(", conflicts ").append(publishConflicts).append(", failed ")
                .append(publishFailures).append('\n');
    }
}
