/** Jackson's `JsonGenerator` for programs that catch its IOException: every call is recorded; none throws. */
class JsonGenerator {
    public void writeStartObject() throws java.io.IOException {
        cfporacle.Rt.event(this, "writeStartObject");
    }

    public void writeEndObject() throws java.io.IOException {
        cfporacle.Rt.event(this, "writeEndObject");
    }

    public void writeStartArray() throws java.io.IOException {
        cfporacle.Rt.event(this, "writeStartArray");
    }

    public void writeEndArray() throws java.io.IOException {
        cfporacle.Rt.event(this, "writeEndArray");
    }

    public void writeFieldName(String name) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeFieldName", name);
    }

    public void writeString(String text) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeString", text);
    }

    public void writeNumber(int v) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNumber", v);
    }

    public void writeNumber(long v) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNumber", v);
    }

    public void writeNumber(double v) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNumber", v);
    }

    public void writeNumber(float v) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNumber", v);
    }

    public void writeNumber(String encoded) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNumber", encoded);
    }

    public void writeNumber(java.math.BigDecimal v) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNumber", v);
    }

    public void writeBoolean(boolean state) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeBoolean", state);
    }

    public void writeNull() throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNull");
    }

    public void writeStartObject(Object forValue) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeStartObject", forValue);
    }

    public void writeStartObject(Object forValue, int size) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeStartObject", forValue, size);
    }

    public void writeStartArray(int size) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeStartArray", size);
    }

    public void writeStartArray(Object forValue, int size) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeStartArray", forValue, size);
    }

    public void writeStringField(String name, String value) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeStringField", name, value);
    }

    public void writeNumberField(String name, int value) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNumberField", name, value);
    }

    public void writeNumberField(String name, long value) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNumberField", name, value);
    }

    public void writeNumberField(String name, double value) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNumberField", name, value);
    }

    public void writeNumberField(String name, float value) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNumberField", name, value);
    }

    public void writeNumberField(String name, java.math.BigDecimal value) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNumberField", name, value);
    }

    public void writeBooleanField(String name, boolean value) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeBooleanField", name, value);
    }

    public void writeNullField(String name) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeNullField", name);
    }

    public void writeObjectField(String name, Object pojo) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeObjectField", name, pojo);
    }

    public void writeArrayFieldStart(String name) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeArrayFieldStart", name);
    }

    public void writeObjectFieldStart(String name) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeObjectFieldStart", name);
    }

    public void writeObject(Object pojo) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeObject", pojo);
    }

    public void writeRaw(String text) throws java.io.IOException {
        cfporacle.Rt.event(this, "writeRaw", text);
    }

    public void flush() throws java.io.IOException {
        cfporacle.Rt.event(this, "flush");
    }

    public void close() throws java.io.IOException {
        cfporacle.Rt.event(this, "close");
    }
}
