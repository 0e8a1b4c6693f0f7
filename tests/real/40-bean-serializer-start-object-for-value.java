// spec: tests/specs/json-any-args.cfg
// expect: verified
// entry: InvoiceSerializer.serialize
// why: Jackson serializers open objects with writeStartObject(value, size); with `(..)` the spec counts every overload as the start of an object, so each one is closed by writeEndObject.
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

/** Writes an invoice with its lines; Jackson 2.10+ style: the value travels with the start call. */
public class InvoiceSerializer extends StdSerializer<Invoice> {
    public InvoiceSerializer() {
        super(Invoice.class);
    }

    @Override
    public void serialize(Invoice invoice, JsonGenerator gen, SerializerProvider provider) {
        gen.writeStartObject(invoice, 3);
        gen.writeFieldName("number");
        gen.writeString(invoice.number);
        gen.writeFieldName("total");
        gen.writeNumber(invoice.totalCents);
        gen.writeFieldName("lines");
        gen.writeStartArray(invoice, invoice.lineCount);
        for (int i = 0; i < invoice.lineCount; i++) {
            writeLine(gen, invoice, i);
        }
        gen.writeEndArray();
        gen.writeEndObject();
    }

    private void writeLine(JsonGenerator gen, Invoice invoice, int index) {
        gen.writeStartObject(invoice);
        gen.writeFieldName("index");
        gen.writeNumber(index);
        if (invoice.taxed) {
            gen.writeFieldName("tax");
            gen.writeBoolean(true);
        }
        gen.writeEndObject();
    }
}

class Invoice {
    String number;
    int totalCents;
    int lineCount;
    boolean taxed;
}
