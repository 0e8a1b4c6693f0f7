// spec: json
// expect: verified
// entry: PointSerializer.serialize
// jvm: `SerializerProvider` is Jackson's: the verdict rests on its built-in model
// why: the built-in model of `SerializerProvider` writes the field's name and then one
// value, so the label is a whole field inside the object the serializer opens and closes.
class Point {
    int x;
    Object label;
}

class PointSerializer {
    void serialize(Point p, JsonGenerator gen, SerializerProvider provider) {
        gen.writeStartObject();
        gen.writeFieldName("x");
        gen.writeNumber(p.x);
        provider.defaultSerializeField("label", p.label, gen);
        gen.writeEndObject();
    }
}
