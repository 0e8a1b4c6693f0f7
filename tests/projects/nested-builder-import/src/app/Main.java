package app;

import net.Response.Builder;

/** `Builder` is the imported `Response.Builder`, which leaks the lock on an empty body. */
public class Main {
    public static void main(String[] args) {
        new Builder().body(args.length > 0 ? args[0] : "").build();
    }
}
