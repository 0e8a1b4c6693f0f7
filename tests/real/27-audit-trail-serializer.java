// spec: json
// expect: violation
// entry: AuditTrailSerializer.serialize
// why: when the trail has more events than the limit, serialize writes a "truncated" field
// and closes the outer object while the "events" array is still open (no writeEndArray()
// on that path): a field name inside an array is outside the protocol.
package com.example.audit.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import java.io.IOException;
import java.util.List;

class AuditEvent {
    String actor;
    String action;
    long timestamp;
    Object detail;
}

class AuditTrail {
    String resourceId;
    List<AuditEvent> events;
}

public class AuditTrailSerializer extends JsonSerializer<AuditTrail> {

    private final int maxEvents;

    public AuditTrailSerializer(int maxEvents) {
        this.maxEvents = maxEvents;
    }

    @Override
    public void serialize(AuditTrail trail, JsonGenerator gen, SerializerProvider serializers)
            throws IOException {
        gen.writeStartObject();
        gen.writeFieldName("resource");
        gen.writeString(trail.resourceId);
        gen.writeFieldName("events");
        gen.writeStartArray();
        int written = 0;
        for (AuditEvent event : trail.events) {
            if (written >= maxEvents) {
                // too many events: mark the trail as truncated and stop
                gen.writeFieldName("truncated");
                gen.writeBoolean(true);
                gen.writeEndObject();
                return;
            }
            writeEvent(gen, event);
            written++;
        }
        gen.writeEndArray();
        gen.writeEndObject();
    }

    private void writeEvent(JsonGenerator gen, AuditEvent event) throws IOException {
        gen.writeStartObject();
        gen.writeFieldName("actor");
        gen.writeString(event.actor);
        gen.writeFieldName("action");
        gen.writeString(event.action);
        gen.writeFieldName("at");
        gen.writeNumber(event.timestamp);
        if (event.detail instanceof String text) {
            gen.writeFieldName("detail");
            gen.writeString(text);
        } else if (event.detail instanceof Number number) {
            gen.writeFieldName("detail");
            gen.writeNumber(number.longValue());
        }
        gen.writeEndObject();
    }
}
