package io.statecast.overlay.message;

/**
 * One link of an application message's extension chain. The type code is written before each
 * extension; code {@code 0} ends the chain.
 */
public sealed interface Extension permits PayloadExtension, FsmExtension, FieldsExtension, UnknownExtension {

    /** Wire type code of the payload extension. */
    int PAYLOAD = 1;
    /** Wire type code of the FSM extension. */
    int FSM = 2;
    /**
     * Wire type code of the fields extension (valid only beside an FSM extension). Not 3: that is
     * the flood identifier's ({@code FloodId}), which travels as an unknown extension.
     */
    int FIELDS = 4;

    /** The wire type code, 1..255. */
    int type();
}
