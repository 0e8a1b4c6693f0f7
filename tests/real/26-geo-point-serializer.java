// spec: json
// expect: verified
// entry: GeoPointSerializer.serialize
// why: serialize writes exactly one value per call: a complete object whose optional
// "alt" field and "tags" array are each written whole or not at all; the null point is
// handed to the provider (not the generator) and the method returns before writing.
package com.example.geo.jackson;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.List;

/** A WGS84 position with an optional altitude and free-form tags. */
class GeoPoint {
    final double latitude;
    final double longitude;
    final Double altitude;
    final List<String> tags;

    GeoPoint(double latitude, double longitude, Double altitude, List<String> tags) {
        this.latitude = latitude;
        this.longitude = longitude;
        this.altitude = altitude;
        this.tags = tags;
    }
}

public class GeoPointSerializer extends StdSerializer<GeoPoint> {

    /** Serialization options read from the mapper's configuration. */
    static final class Options {
        final boolean writeTags;
        final Integer precision;

        Options(boolean writeTags, Integer precision) {
            this.writeTags = writeTags;
            this.precision = precision;
        }
    }

    private final Options options;

    public GeoPointSerializer() {
        this(new Options(true, Integer.valueOf(6)));
    }

    public GeoPointSerializer(Options options) {
        super(GeoPoint.class);
        this.options = options;
    }

    @Override
    public void serialize(GeoPoint point, JsonGenerator gen, SerializerProvider provider)
            throws IOException {
        if (point == null) {
            provider.defaultSerializeNull(gen);
            return;
        }
        int digits = options.precision == null ? 6 : options.precision.intValue();
        gen.writeStartObject();
        gen.writeFieldName("lat");
        gen.writeNumber(round(point.latitude, digits));
        gen.writeFieldName("lng");
        gen.writeNumber(round(point.longitude, digits));
        if (point.altitude != null) {
            gen.writeFieldName("alt");
            gen.writeNumber(point.altitude.doubleValue());
        }
        if (options.writeTags && point.tags != null && !point.tags.isEmpty()) {
            gen.writeFieldName("tags");
            writeTags(gen, point.tags);
        }
        gen.writeEndObject();
    }

    private static void writeTags(JsonGenerator gen, List<String> tags) throws IOException {
        gen.writeStartArray();
        for (String tag : tags) {
            if (tag == null || tag.isEmpty()) {
                continue;
            }
            gen.writeString(tag);
        }
        gen.writeEndArray();
    }

    private static double round(double value, int digits) {
        double scale = Math.pow(10, digits);
        return Math.round(value * scale) / scale;
    }
}
