// spec: json
// expect: verified
// entry: ReportWriter.write
// why: the inner FieldWriter writes a field name and its value through the generator held
// by the ReportWriter that created it, inside the object that write() opens and closes.
import com.fasterxml.jackson.core.JsonGenerator;

public class ReportWriter {
    private JsonGenerator gen;

    public void write(JsonGenerator out) {
        this.gen = out;
        gen.writeStartObject();
        new FieldWriter().writeField("total", 42);
        gen.writeEndObject();
    }

    /** Writes one field through the enclosing writer's generator. */
    class FieldWriter {
        void writeField(String name, int value) {
            ReportWriter.this.gen.writeFieldName(name);
            ReportWriter.this.gen.writeNumber(value);
        }
    }
}
