// Built-in model of Jackson's com.fasterxml.jackson.databind.SerializerProvider (`cfp
// models jackson-provider`): defaultSerializeField(name, value, gen) writes the field's
// name and then its value to `gen`, and defaultSerializeValue(value, gen) the value. A
// value is written here as one string: to the JSON protocol every complete value (a
// scalar, an object, an array) is alike. This assumes that the serializer Jackson finds
// for the value's class writes one complete value: Jackson's own serializers do, and a
// serializer of the program is checked on its own (`--entry ItsSerializer.serialize`).
// Methods outside the model (findValueSerializer(), getConfig(), …) have arbitrary
// results and no effect.
class SerializerProvider extends CfpLibraryModel {
    public void defaultSerializeField(String fieldName, Object value, JsonGenerator gen) {
        gen.writeFieldName(fieldName);
        defaultSerializeValue(value, gen);
    }

    public void defaultSerializeValue(Object value, JsonGenerator gen) {
        gen.writeString(String.valueOf(value));
    }
}
