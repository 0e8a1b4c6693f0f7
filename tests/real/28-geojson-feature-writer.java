// spec: json
// expect: violation
// entry: GeoJsonWriter.writeFeature
// why: writeRings opens an array for every ring of a polygon but closes only the outer
// array after the loop, so a polygon with a ring leaves the "coordinates" arrays unbalanced
// and the feature object is closed inside an open array.
package org.example.gis.geojson;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.Map;

public class GeoJsonWriter {

    public enum GeometryType { POINT, LINE_STRING, POLYGON }

    /** A geometry with its coordinates: one position, a list of them, or a list of rings. */
    public static final class Geometry {
        final GeometryType type;
        final double[] point;
        final double[][] line;
        final double[][][] rings;

        Geometry(GeometryType type, double[] point, double[][] line, double[][][] rings) {
            this.type = type;
            this.point = point;
            this.line = line;
            this.rings = rings;
        }
    }

    /** A GeoJSON feature: an id, a geometry and string properties. */
    public static final class Feature {
        String id;
        Geometry geometry;
        Map<String, String> properties;
    }

    public void writeFeature(JsonGenerator gen, Feature feature) throws IOException {
        assert feature.geometry != null : "features without geometry are filtered earlier";
        gen.writeStartObject();
        gen.writeFieldName("type");
        gen.writeString("Feature");
        gen.writeFieldName("id");
        gen.writeString(feature.id);
        gen.writeFieldName("geometry");
        writeGeometry(gen, feature.geometry);
        gen.writeFieldName("properties");
        gen.writeStartObject();
        for (Map.Entry<String, String> property : feature.properties.entrySet()) {
            gen.writeFieldName(property.getKey());
            gen.writeString(property.getValue());
        }
        gen.writeEndObject();
        gen.writeEndObject();
    }

    private void writeGeometry(JsonGenerator gen, Geometry geometry) throws IOException {
        gen.writeStartObject();
        gen.writeFieldName("type");
        switch (geometry.type) {
            case POINT:
                gen.writeString("Point");
                gen.writeFieldName("coordinates");
                writePosition(gen, geometry.point);
                break;
            case LINE_STRING:
                gen.writeString("LineString");
                gen.writeFieldName("coordinates");
                writePositions(gen, geometry.line);
                break;
            case POLYGON:
                gen.writeString("Polygon");
                gen.writeFieldName("coordinates");
                writeRings(gen, geometry.rings);
                break;
            default:
                throw new IllegalArgumentException("unsupported geometry " + geometry.type);
        }
        gen.writeEndObject();
    }

    private void writeRings(JsonGenerator gen, double[][][] rings) throws IOException {
        gen.writeStartArray();
        for (double[][] ring : rings) {
            gen.writeStartArray();
            for (double[] position : ring) {
                writePosition(gen, position);
            }
            // BUG: the ring's array is never closed
        }
        gen.writeEndArray();
    }

    private void writePositions(JsonGenerator gen, double[][] positions) throws IOException {
        gen.writeStartArray();
        for (double[] position : positions) {
            writePosition(gen, position);
        }
        gen.writeEndArray();
    }

    private static void writePosition(JsonGenerator gen, double[] position) throws IOException {
        gen.writeStartArray();
        gen.writeNumber(position[0]);
        gen.writeNumber(position[1]);
        gen.writeEndArray();
    }
}
