// spec: json.cfg
// expect: violation
// word: $1.writeStartObject() $1.writeFieldName(_) $1.writeStartArray() $1.writeNumber(_) $1.writeEndObject()
// why: the array inside the object is never closed: writeEndObject comes while the array
// is open (no production lets Vals end with writeEndObject), and the word is the only
// one the generator sees. Other wildcard values see the empty word.
class Main {
    public static void main(String[] args) {
        JsonGenerator g = Json.createGenerator();
        g.writeStartObject();
        g.writeFieldName("a");
        g.writeStartArray();
        g.writeNumber(1);
        g.writeEndObject();
    }
}
