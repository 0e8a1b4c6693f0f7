// spec: json
// expect: violation
// entry: ReportJsonWriter.writeRows
// why: the finally block always closes the rows array, but a row whose cells do not match
// the header is skipped with `continue` after its object was started: the next row's
// writeStartObject() (or the array's end) then comes inside an unterminated object.
package com.example.reports.export;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;

/** One row of a tabular report. */
interface ReportRow {
    int cellCount();

    String cell(int index);

    boolean isSubtotal();
}

public class ReportJsonWriter {

    private final String[] header;
    private final boolean includeSubtotals;

    public ReportJsonWriter(String[] header, boolean includeSubtotals) {
        this.header = header;
        this.includeSubtotals = includeSubtotals;
    }

    /** Writes the rows as an array of objects keyed by the header's column names. */
    public void writeRows(JsonGenerator gen, List<ReportRow> rows) throws IOException {
        gen.writeStartArray();
        try {
            Iterator<ReportRow> it = rows.iterator();
            while (it.hasNext()) {
                ReportRow row = it.next();
                if (row.isSubtotal() && !includeSubtotals) {
                    continue;
                }
                gen.writeStartObject();
                if (row.cellCount() != header.length) {
                    // malformed row: skip it
                    continue;
                }
                for (int i = 0; i < header.length; i++) {
                    gen.writeFieldName(header[i]);
                    writeCell(gen, row.cell(i));
                }
                gen.writeEndObject();
            }
        } finally {
            gen.writeEndArray();
        }
    }

    private static void writeCell(JsonGenerator gen, String text) throws IOException {
        if (text == null || text.isEmpty()) {
            return;
        }
        if (looksNumeric(text)) {
            gen.writeNumber(text);
        } else {
            gen.writeString(text);
        }
    }

    private static boolean looksNumeric(String text) {
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if ((ch < '0' || ch > '9') && ch != '.' && ch != '-') {
                return false;
            }
        }
        return true;
    }
}
