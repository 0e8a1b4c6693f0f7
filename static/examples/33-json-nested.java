// spec: json.cfg
// expect: verified
// why: an object with field "a" holding an array of numbers (a loop of any length) and
// field "b" holding a string: Obj -> start Fld end, Fld -> name S Fld, S -> Arr,
// Arr -> startArray Vals endArray, Vals -> S Vals | eps, S -> writeNumber(_).
class Main {
    static void numbers(JsonGenerator g) {
        g.writeStartArray();
        while (*) {
            g.writeNumber(Input.readInt());
        }
        g.writeEndArray();
    }

    public static void main(String[] args) {
        JsonGenerator g = Json.createGenerator();
        g.writeStartObject();
        g.writeFieldName("a");
        numbers(g);
        g.writeFieldName("b");
        g.writeString("x");
        g.writeEndObject();
    }
}
