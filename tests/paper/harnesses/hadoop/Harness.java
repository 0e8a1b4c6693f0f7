package org.apache.hadoop.mapred;

import java.io.StringWriter;
import org.apache.hadoop.conf.Configuration;

/** The paper's harness: the queues' configuration dumped as JSON. */
public class Harness {
    public static void main(String[] args) throws Exception {
        StringWriter writer = new StringWriter();
        Configuration conf = new Configuration();
        QueueManager.dumpConfiguration(writer, conf);
    }
}
