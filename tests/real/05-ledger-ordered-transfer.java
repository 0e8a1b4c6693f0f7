// spec: lock
// expect: verified
// harness: public-methods
// why: a transfer locks the two accounts in id order and releases both in nested finally
// blocks (when both sides are the same account the reentrant lock is simply taken twice);
// commands are dispatched with instanceof patterns and boxed amounts.
package com.example.ledger;

import java.util.concurrent.locks.ReentrantLock;

interface LedgerCommand {
    String describe();

    boolean isAudited();
}

final class Account {
    final Long id;
    final ReentrantLock lock = new ReentrantLock();
    long balanceCents;

    Account(Long id, long openingBalance) {
        this.id = id;
        this.balanceCents = openingBalance;
    }
}

final class Transfer implements LedgerCommand {
    final Account from;
    final Account to;
    final Integer amountCents;

    Transfer(Account from, Account to, Integer amountCents) {
        this.from = from;
        this.to = to;
        this.amountCents = amountCents;
    }

    public String describe() {
        return "transfer " + amountCents + " from " + from.id + " to " + to.id;
    }

    public boolean isAudited() {
        return amountCents.intValue() > 1_000_000;
    }
}

final class Deposit implements LedgerCommand {
    final Account target;
    final Integer amountCents;

    Deposit(Account target, Integer amountCents) {
        this.target = target;
        this.amountCents = amountCents;
    }

    public String describe() {
        return "deposit " + amountCents + " to " + target.id;
    }

    public boolean isAudited() {
        return false;
    }
}

public class Ledger {
    private final AuditLog audit = new AuditLog();

    public boolean apply(Object command) {
        if (command instanceof Transfer t) {
            return transfer(t.from, t.to, t.amountCents.intValue());
        } else if (command instanceof Deposit d) {
            Account target = d.target;
            target.lock.lock();
            try {
                target.balanceCents += d.amountCents.intValue();
            } finally {
                target.lock.unlock();
            }
            return true;
        }
        return false;
    }

    public boolean transfer(Account from, Account to, int amountCents) {
        if (amountCents <= 0) {
            return false;
        }
        Account first = lockOrderFirst(from, to);
        Account second = first == from ? to : from;
        first.lock.lock();
        try {
            second.lock.lock();
            try {
                if (from.balanceCents < amountCents) {
                    audit.record("insufficient funds on " + from.id);
                    return false;
                }
                from.balanceCents -= amountCents;
                to.balanceCents += amountCents;
            } finally {
                second.lock.unlock();
            }
        } finally {
            first.lock.unlock();
        }
        audit.record("moved " + amountCents);
        return true;
    }

    // Always lock the account with the smaller id first to avoid deadlocks.
    private static Account lockOrderFirst(Account a, Account b) {
        assert a.id != null && b.id != null : "accounts must be persisted before a transfer";
        return a.id.longValue() <= b.id.longValue() ? a : b;
    }
}

class AuditLog {
    private final StringBuilder buffer = new StringBuilder();

    void record(String line) {
        buffer.append(System.currentTimeMillis()).append(' ').append(line).append('\n');
    }
}
