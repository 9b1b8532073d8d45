package io.statecast.messagestore.action;

import io.statecast.messagestore.event.AttributeValues;
import io.statecast.messagestore.spec.ActionField;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.FieldAssignment;
import io.statecast.messagestore.spec.MessageFieldValues;
import io.statecast.messagestore.spec.Parameters;
import io.statecast.overlay.message.MessageField;
import java.util.ArrayList;
import java.util.List;

/**
 * An action's fields as one deployed spec runs them: the last value assigned to each field, with
 * literals and parameters turned into their text, and parsed once where they are whole numbers.
 * A spec's parameters are fixed for its deployment, so a timer's value or identifier need not be
 * looked up and parsed again on every execution. XPath fields stay as they are: their value
 * depends on the instance's history.
 *
 * <p>Immutable; built once per action of a deployed spec and shared by its instances.
 */
public final class ResolvedFields {

    private static final ActionField[] FIELDS = ActionField.values();

    private final FieldValue[] values = new FieldValue[FIELDS.length];
    /** The literal's or parameter's text; null for an XPath, an unset field, or an undeclared parameter. */
    private final String[] texts = new String[FIELDS.length];
    private final long[] numbers = new long[FIELDS.length];
    private final boolean[] whole = new boolean[FIELDS.length];

    private final List<MessageFieldSetting> messageFields;

    private ResolvedFields(ActionTemplate action, Parameters parameters) {
        List<MessageFieldSetting> settings = new ArrayList<>();
        for (FieldAssignment a : action.messageFields()) {
            MessageField constant = null;
            String text = a.value() instanceof FieldValue.Literal l ? l.text()
                    : a.value() instanceof FieldValue.ParameterRef ref && parameters.contains(ref.name())
                            ? parameters.value(ref.name()) : null;
            if (text != null) {
                try {
                    constant = MessageFieldValues.parse(a.fieldType(), text);
                } catch (IllegalArgumentException e) {
                    // an overridden parameter that does not fit: the send reports it when it runs
                }
            }
            settings.add(new MessageFieldSetting(a.name(), a.fieldType(), a.value(), constant, a.line()));
        }
        this.messageFields = List.copyOf(settings);
        for (ActionField field : FIELDS) {
            int i = field.ordinal();
            FieldValue v = action.valueOf(field);
            values[i] = v;
            String text = null;
            if (v instanceof FieldValue.Literal l) {
                text = l.text();
            } else if (v instanceof FieldValue.ParameterRef ref && parameters.contains(ref.name())) {
                text = parameters.value(ref.name());
            }
            texts[i] = text;
            if (text != null) {
                try {
                    numbers[i] = AttributeValues.longValue(text, Long.MIN_VALUE, Long.MAX_VALUE, field.path());
                    whole[i] = true;
                } catch (IllegalArgumentException notWhole) {
                    // not a number: the primitive that needs one reports it when it runs
                }
            }
        }
    }

    /**
     * A message field an action sets ({@code Message/Fields/NAME}).
     *
     * @param name     the field's name
     * @param type     its type
     * @param value    where its value comes from
     * @param constant the value when a literal or declared parameter gives it (parsed once), else null
     * @param line     line of the {@code action:set}
     */
    public record MessageFieldSetting(String name, MessageField.Type type, FieldValue value, MessageField constant,
            int line) {
    }

    /** The message fields the action sets, the last assignment of each name; empty when none. */
    public List<MessageFieldSetting> messageFields() {
        return messageFields;
    }

    /**
     * Resolves {@code action}'s fields against {@code parameters}. A parameter the spec does not
     * declare is left as a reference, so that running the action reports it.
     */
    public static ResolvedFields of(ActionTemplate action, Parameters parameters) {
        return new ResolvedFields(action, parameters);
    }

    /** The last value assigned to {@code field}, or null when the action does not set it. */
    public FieldValue value(ActionField field) {
        return values[field.ordinal()];
    }

    /** The field's text when it is a literal or a declared parameter, else null. */
    public String text(ActionField field) {
        return texts[field.ordinal()];
    }

    /** Whether {@link #text} is a whole number, available as {@link #number}. */
    public boolean isWhole(ActionField field) {
        return whole[field.ordinal()];
    }

    /** The field's whole number; meaningful only when {@link #isWhole} says so. */
    public long number(ActionField field) {
        return numbers[field.ordinal()];
    }
}
