/** A JSON writer (the corpus's, and Jackson's for programs that do not catch its IOException): every call is recorded; none throws. */
class JsonGenerator {
    public void writeStartObject() {
        cfporacle.Rt.event(this, "writeStartObject");
    }

    public void writeEndObject() {
        cfporacle.Rt.event(this, "writeEndObject");
    }

    public void writeStartArray() {
        cfporacle.Rt.event(this, "writeStartArray");
    }

    public void writeEndArray() {
        cfporacle.Rt.event(this, "writeEndArray");
    }

    public void writeFieldName(String name) {
        cfporacle.Rt.event(this, "writeFieldName", name);
    }

    public void writeString(String text) {
        cfporacle.Rt.event(this, "writeString", text);
    }

    public void writeNumber(int v) {
        cfporacle.Rt.event(this, "writeNumber", v);
    }

    public void writeNumber(long v) {
        cfporacle.Rt.event(this, "writeNumber", v);
    }

    public void writeNumber(double v) {
        cfporacle.Rt.event(this, "writeNumber", v);
    }

    public void writeNumber(float v) {
        cfporacle.Rt.event(this, "writeNumber", v);
    }

    public void writeNumber(String encoded) {
        cfporacle.Rt.event(this, "writeNumber", encoded);
    }

    public void writeNumber(java.math.BigDecimal v) {
        cfporacle.Rt.event(this, "writeNumber", v);
    }

    public void writeBoolean(boolean state) {
        cfporacle.Rt.event(this, "writeBoolean", state);
    }

    public void writeNull() {
        cfporacle.Rt.event(this, "writeNull");
    }

    public void writeStartObject(Object forValue) {
        cfporacle.Rt.event(this, "writeStartObject", forValue);
    }

    public void writeStartObject(Object forValue, int size) {
        cfporacle.Rt.event(this, "writeStartObject", forValue, size);
    }

    public void writeStartArray(int size) {
        cfporacle.Rt.event(this, "writeStartArray", size);
    }

    public void writeStartArray(Object forValue, int size) {
        cfporacle.Rt.event(this, "writeStartArray", forValue, size);
    }

    public void writeStringField(String name, String value) {
        cfporacle.Rt.event(this, "writeStringField", name, value);
    }

    public void writeNumberField(String name, int value) {
        cfporacle.Rt.event(this, "writeNumberField", name, value);
    }

    public void writeNumberField(String name, long value) {
        cfporacle.Rt.event(this, "writeNumberField", name, value);
    }

    public void writeNumberField(String name, double value) {
        cfporacle.Rt.event(this, "writeNumberField", name, value);
    }

    public void writeNumberField(String name, float value) {
        cfporacle.Rt.event(this, "writeNumberField", name, value);
    }

    public void writeNumberField(String name, java.math.BigDecimal value) {
        cfporacle.Rt.event(this, "writeNumberField", name, value);
    }

    public void writeBooleanField(String name, boolean value) {
        cfporacle.Rt.event(this, "writeBooleanField", name, value);
    }

    public void writeNullField(String name) {
        cfporacle.Rt.event(this, "writeNullField", name);
    }

    public void writeObjectField(String name, Object pojo) {
        cfporacle.Rt.event(this, "writeObjectField", name, pojo);
    }

    public void writeArrayFieldStart(String name) {
        cfporacle.Rt.event(this, "writeArrayFieldStart", name);
    }

    public void writeObjectFieldStart(String name) {
        cfporacle.Rt.event(this, "writeObjectFieldStart", name);
    }

    public void writeObject(Object pojo) {
        cfporacle.Rt.event(this, "writeObject", pojo);
    }

    public void writeRaw(String text) {
        cfporacle.Rt.event(this, "writeRaw", text);
    }

    public void flush() {
        cfporacle.Rt.event(this, "flush");
    }

    public void close() {
        cfporacle.Rt.event(this, "close");
    }
}
