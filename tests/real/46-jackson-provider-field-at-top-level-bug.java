// spec: json
// expect: violation
// entry: PointSerializer.serialize
// jvm: `SerializerProvider` is Jackson's: the verdict rests on its built-in model
// why: a serializer that unwraps its value writes the label field with no object open:
// the model of `defaultSerializeField` writes a field name at the top level, where JSON
// allows only a value.
class Point {
    int x;
    Object label;
}

class PointSerializer {
    void serialize(Point p, JsonGenerator gen, SerializerProvider provider) {
        gen.writeNumber(p.x);
        provider.defaultSerializeField("label", p.label, gen);
    }
}
