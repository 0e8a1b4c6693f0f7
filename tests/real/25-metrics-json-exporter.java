// spec: json
// expect: verified
// entry: MetricsJsonExporter.export
// why: export writes one object whose "metrics" field is an array; every metric, whatever
// its type (instanceof patterns), is written as one complete object with named fields, and
// a histogram's buckets are a nested array closed after its loop.
package io.example.metrics.export;

import com.fasterxml.jackson.core.JsonGenerator;
import java.util.ArrayList;
import java.util.List;

interface Metric {
    String name();
}

final class Counter implements Metric {
    private final String name;
    Long count = 0L;

    Counter(String name) { this.name = name; }

    public String name() { return name; }
}

final class Gauge implements Metric {
    private final String name;
    Double value;

    Gauge(String name) { this.name = name; }

    public String name() { return name; }
}

final class Histogram implements Metric {
    private final String name;
    long[] bucketCounts = new long[8];

    Histogram(String name) { this.name = name; }

    public String name() { return name; }
}

public class MetricsJsonExporter {

    private final Object registryLock = new Object();
    private final List<Metric> registry = new ArrayList<>();
    private final String instanceId;

    public MetricsJsonExporter(String instanceId) {
        this.instanceId = instanceId;
    }

    public void register(Metric metric) {
        synchronized (registryLock) {
            registry.add(metric);
        }
    }

    public void export(JsonGenerator gen, long timestampMillis) {
        List<Metric> snapshot;
        synchronized (registryLock) {
            snapshot = new ArrayList<>(registry);
        }
        gen.writeStartObject();
        gen.writeFieldName("instance");
        gen.writeString(instanceId);
        gen.writeFieldName("timestamp");
        gen.writeNumber(timestampMillis);
        gen.writeFieldName("metrics");
        gen.writeStartArray();
        for (Metric metric : snapshot) {
            writeMetric(gen, metric);
        }
        gen.writeEndArray();
        gen.writeEndObject();
    }

    private void writeMetric(JsonGenerator gen, Metric metric) {
        assert metric != null : "registry never holds null";
        gen.writeStartObject();
        gen.writeFieldName("name");
        gen.writeString(metric.name());
        if (metric instanceof Counter counter) {
            gen.writeFieldName("type");
            gen.writeString("counter");
            gen.writeFieldName("count");
            gen.writeNumber(counter.count.longValue());
        } else if (metric instanceof Gauge gauge && gauge.value != null) {
            gen.writeFieldName("type");
            gen.writeString("gauge");
            gen.writeFieldName("value");
            gen.writeNumber(gauge.value.doubleValue());
        } else if (metric instanceof Histogram histogram) {
            gen.writeFieldName("type");
            gen.writeString("histogram");
            gen.writeFieldName("buckets");
            writeBuckets(gen, histogram.bucketCounts);
        }
        gen.writeEndObject();
    }

    private static void writeBuckets(JsonGenerator gen, long[] counts) {
        gen.writeStartArray();
        for (int i = 0; i < counts.length; i++) {
            gen.writeNumber(counts[i]);
        }
        gen.writeEndArray();
    }
}
