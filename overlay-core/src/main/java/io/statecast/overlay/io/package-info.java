/** Reading the files users name: causes of failure in a user's words. */
package io.statecast.overlay.io;
