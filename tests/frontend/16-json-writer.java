// spec: json.cfg
class Writer {
    JsonGenerator g;

    Writer(JsonGenerator g) { this.g = g; }

    void writeTree(int depth) {
        g.writeStartObject();
        g.writeFieldName("depth");
        g.writeNumber(depth);
        if (depth > 0) {
            g.writeFieldName("child");
            writeTree(depth - 1);
        }
        g.writeEndObject();
    }

    void writeList(int n) {
        g.writeStartArray();
        while (n-- > 0) g.writeString("x");
        g.writeEndArray();
    }

    public static void main(String[] args) {
        Writer w = new Writer(new JsonFactory().createGenerator());
        w.writeTree(2);
    }
}
