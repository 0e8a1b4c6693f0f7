/** Jackson's `SerializerProvider`: does nothing (never throws). */
class SerializerProvider {
    public void defaultSerializeNull(JsonGenerator gen) {
    }

    public void defaultSerializeValue(Object value, JsonGenerator gen) {
    }

    public void reportMappingProblem(String message, Object... args) {
    }
}
