// spec: json
// expect: verified
// entry: ConfigTreeExporter.export
// why: the exporter writes the whole tree as one value: a section is an object whose
// entries are each a field name followed by one value (a recursive section, a string, or a
// redacted placeholder), and the depth limit writes a single string instead of recursing.
package com.example.platform.config;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;

/** Decides which configuration keys hold secrets. */
interface SecretPolicy {
    boolean isSecret(String key);
}

/** A node of the configuration tree: a section with children, or a leaf with a value. */
class ConfigNode {
    String key;
    String value;
    List<ConfigNode> children;

    boolean isSection() {
        return children != null;
    }
}

public class ConfigTreeExporter {

    private static final int DEFAULT_MAX_DEPTH = 16;

    private final SecretPolicy secretPolicy;
    private final Integer maxDepth;
    private boolean redactSecrets = true;

    public ConfigTreeExporter(SecretPolicy secretPolicy, Integer maxDepth) {
        this.secretPolicy = secretPolicy;
        this.maxDepth = maxDepth;
    }

    public void setRedactSecrets(boolean redactSecrets) {
        this.redactSecrets = redactSecrets;
    }

    public void export(JsonGenerator gen, ConfigNode root) throws IOException {
        if (root == null) {
            return;
        }
        SectionWriter writer = new SectionWriter(gen);
        if (root.isSection()) {
            writer.writeSection(root, 0);
        } else {
            writer.writeLeaf(root);
        }
    }

    /** Writes sections through one generator, with the exporter's policy and limits. */
    class SectionWriter {
        private final JsonGenerator gen;

        SectionWriter(JsonGenerator gen) {
            this.gen = gen;
        }

        void writeSection(ConfigNode section, int depth) throws IOException {
            int limit = maxDepth == null ? DEFAULT_MAX_DEPTH : maxDepth.intValue();
            if (depth >= limit) {
                gen.writeString("<" + section.children.size() + " entries>");
                return;
            }
            gen.writeStartObject();
            for (ConfigNode child : section.children) {
                gen.writeFieldName(child.key);
                if (child.isSection()) {
                    writeSection(child, depth + 1);
                } else {
                    writeLeaf(child);
                }
            }
            gen.writeEndObject();
        }

        void writeLeaf(ConfigNode leaf) throws IOException {
            boolean redact = ConfigTreeExporter.this.redactSecrets
                    && secretPolicy.isSecret(leaf.key);
            if (redact) {
                gen.writeString("******");
            } else if (leaf.value != null) {
                gen.writeString(leaf.value);
            }
        }
    }
}
