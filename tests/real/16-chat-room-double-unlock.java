// spec: lock
// expect: violation
// harness: public-methods
// why: broadcast() drops the room lock before sending to avoid holding it during I/O, but
// the finally block unlocks it again: the second unlock() has no matching lock() (an
// IllegalMonitorStateException in Java).
package net.example.chat.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

public class ChatRoom {
    private final ReentrantLock membersLock = new ReentrantLock();
    private final List<Member> members = new ArrayList<>();
    private final String roomName;
    private final int maxMembers;
    private long messagesSent;

    public ChatRoom(String roomName, Integer maxMembers) {
        this.roomName = roomName;
        this.maxMembers = maxMembers == null ? 100 : maxMembers.intValue();
    }

    public boolean join(String nickname, Object channel) {
        membersLock.lock();
        try {
            if (members.size() >= maxMembers) {
                return false;
            }
            members.add(new Member(nickname, channel));
            return true;
        } finally {
            membersLock.unlock();
        }
    }

    public void broadcast(String from, String text) {
        List<Member> targets;
        membersLock.lock();
        try {
            members.removeIf(Member::isClosed);
            targets = new ArrayList<>(members);
            // Do not hold the room lock while writing to sockets.
            membersLock.unlock();
            targets.forEach(m -> m.deliver(from, text));
        } finally {
            membersLock.unlock();
        }
        synchronized (this) {
            messagesSent += targets.size();
        }
    }

    public long messagesSent() {
        synchronized (this) {
            return messagesSent;
        }
    }

    /** One connected user; knows the room it belongs to. */
    class Member {
        private final String nickname;
        private final Object channel;
        private boolean closed;

        Member(String nickname, Object channel) {
            this.nickname = nickname;
            this.channel = channel;
        }

        boolean isClosed() {
            return closed || !Channels.isOpen(channel);
        }

        void deliver(String from, String text) {
            String line = "[" + ChatRoom.this.roomName + "] " + from + ": " + text;
            if (!Channels.write(channel, line)) {
                closed = true;
            }
        }
    }
}
