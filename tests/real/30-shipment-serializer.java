// spec: json
// expect: verified
// entry: ShipmentSerializer.serialize
// why: one complete object per call: the status switch writes exactly one string on every
// branch, each checkpoint is a whole object in the "checkpoints" array, and the lambda and
// the anonymous ThreadLocal only read fields and build framework objects, so not running
// their code cannot change the verdict.
package com.example.logistics.api.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

enum ShipmentStatus { CREATED, IN_TRANSIT, OUT_FOR_DELIVERY, DELIVERED, RETURNED }

class Checkpoint {
    String location;
    long timestamp;
    String note;
}

class Shipment {
    String trackingNumber;
    ShipmentStatus status;
    Integer weightGrams;
    List<Checkpoint> checkpoints;
}

public class ShipmentSerializer extends StdSerializer<Shipment> {

    private static final ThreadLocal<SimpleDateFormat> ISO_8601 =
            new ThreadLocal<SimpleDateFormat>() {
                @Override
                protected SimpleDateFormat initialValue() {
                    return new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ssXXX");
                }
            };

    public ShipmentSerializer() {
        super(Shipment.class);
    }

    @Override
    public void serialize(Shipment shipment, JsonGenerator gen, SerializerProvider provider)
            throws IOException {
        if (shipment.trackingNumber == null) {
            // reportMappingProblem throws a JsonMappingException; nothing is written
            provider.reportMappingProblem("%s without a tracking number",
                    _handledType.getSimpleName());
            return;
        }
        gen.writeStartObject();
        gen.writeFieldName("tracking_number");
        gen.writeString(shipment.trackingNumber);
        gen.writeFieldName("status");
        switch (shipment.status) {
            case IN_TRANSIT:
            case OUT_FOR_DELIVERY:
                gen.writeString("moving");
                break;
            case DELIVERED:
                gen.writeString("delivered");
                break;
            default:
                gen.writeString(shipment.status.name().toLowerCase());
                break;
        }
        if (shipment.weightGrams != null) {
            gen.writeFieldName("weight_kg");
            gen.writeNumber(shipment.weightGrams.intValue() / 1000.0);
        }
        List<Checkpoint> ordered = new ArrayList<>(shipment.checkpoints);
        ordered.sort((a, b) -> Long.compare(a.timestamp, b.timestamp));
        gen.writeFieldName("checkpoints");
        gen.writeStartArray();
        for (Checkpoint checkpoint : ordered) {
            writeCheckpoint(gen, checkpoint);
        }
        gen.writeEndArray();
        gen.writeEndObject();
    }

    private static void writeCheckpoint(JsonGenerator gen, Checkpoint checkpoint)
            throws IOException {
        gen.writeStartObject();
        gen.writeFieldName("at");
        gen.writeString(ISO_8601.get().format(new Date(checkpoint.timestamp)));
        gen.writeFieldName("location");
        gen.writeString(checkpoint.location);
        if (checkpoint.note != null && !checkpoint.note.isBlank()) {
            gen.writeFieldName("note");
            gen.writeString(checkpoint.note.trim());
        }
        gen.writeEndObject();
    }
}
