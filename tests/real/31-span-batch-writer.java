// spec: json
// expect: violation
// entry: SpanBatchWriter.writeBatch
// why: after the "spans" array, the number of dropped spans is written with writeNumber()
// but its field name only on one branch, so a batch with no dropped spans puts a bare value
// inside the object; the attribute lambda (code not run) is not needed to see that.
package io.example.tracing.exporter;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

public class SpanBatchWriter {

    /** A finished span as the exporter receives it. */
    public static final class SpanData {
        String traceId;
        String spanId;
        String name;
        long startNanos;
        long endNanos;
        Map<String, Object> attributes;
    }

    private final String serviceName;
    private int droppedSpans;

    public SpanBatchWriter(String serviceName) {
        this.serviceName = serviceName;
    }

    public void writeBatch(JsonGenerator gen, List<SpanData> spans) throws IOException {
        gen.writeStartObject();
        gen.writeFieldName("service");
        gen.writeString(serviceName);
        gen.writeFieldName("spans");
        gen.writeStartArray();
        for (SpanData span : spans) {
            if (span.endNanos < span.startNanos) {
                droppedSpans++;
                continue;
            }
            writeSpan(gen, span);
        }
        gen.writeEndArray();
        if (droppedSpans > 0) {
            gen.writeFieldName("dropped_spans");
        }
        gen.writeNumber(droppedSpans); // BUG: belongs inside the `if`
        gen.writeEndObject();
        droppedSpans = 0;
    }

    private void writeSpan(JsonGenerator gen, SpanData span) throws IOException {
        gen.writeStartObject();
        gen.writeFieldName("trace_id");
        gen.writeString(span.traceId);
        gen.writeFieldName("span_id");
        gen.writeString(span.spanId);
        gen.writeFieldName("name");
        gen.writeString(span.name);
        gen.writeFieldName("duration_us");
        gen.writeNumber((span.endNanos - span.startNanos) / 1000);
        if (span.attributes != null && !span.attributes.isEmpty()) {
            gen.writeFieldName("attributes");
            gen.writeStartObject();
            span.attributes.forEach((key, value) -> writeAttribute(gen, key, value));
            gen.writeEndObject();
        }
        gen.writeEndObject();
    }

    private static void writeAttribute(JsonGenerator gen, String key, Object value) {
        try {
            gen.writeFieldName(key);
            if (value instanceof Boolean flag) {
                gen.writeBoolean(flag.booleanValue());
            } else if (value instanceof Number number) {
                gen.writeNumber(number.doubleValue());
            } else {
                gen.writeString(String.valueOf(value));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
