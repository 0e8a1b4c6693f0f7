// spec: lock
// expect: verified
// harness: public-methods
// why: DecimalFormat is not thread-safe, so the shared formatter is used under a Lock that
// is released in a finally block on every path, including the early return for values
// without a currency; the JsonGenerator calls are no events of the lock protocol.
package com.example.payments.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class MoneySerializer extends StdSerializer<Money> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(MoneySerializer.class);

    public enum Style {
        PLAIN,
        GROUPED,
        ACCOUNTING
    }

    private final Lock formatLock = new ReentrantLock();
    private final DecimalFormat format;
    private final Style style;

    public MoneySerializer(Style style) {
        super(Money.class);
        this.style = style;
        switch (style) {
            case GROUPED:
                format = new DecimalFormat("#,##0.00");
                break;
            case ACCOUNTING:
                format = new DecimalFormat("#,##0.00;(#,##0.00)");
                break;
            case PLAIN:
            default:
                format = new DecimalFormat("0.00");
                break;
        }
    }

    @Override
    public void serialize(Money value, JsonGenerator gen, SerializerProvider provider) throws IOException {
        if (value == null) {
            gen.writeNull();
            return;
        }
        String text;
        formatLock.lock();
        try {
            if (value.currency == null) {
                LOG.warn("{} without currency, writing the bare amount", _handledType.getSimpleName());
                text = format.format(value.amount);
                gen.writeString(text);
                return;
            }
            text = format.format(value.amount) + " " + value.currency;
        } finally {
            formatLock.unlock();
        }
        gen.writeString(text);
    }
}

final class Money {
    final BigDecimal amount;
    final String currency;

    Money(BigDecimal amount, String currency) {
        this.amount = amount;
        this.currency = currency;
    }
}
