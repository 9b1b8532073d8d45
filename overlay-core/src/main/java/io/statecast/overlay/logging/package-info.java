/** Logging helpers shared by every module: a rate-limited WARN log for problem reports. */
package io.statecast.overlay.logging;
