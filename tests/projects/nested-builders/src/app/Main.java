package app;

import net.Request;
import net.Response;

/** `Request.Builder` and `Response.Builder` are two classes; only the first is used. */
public class Main {
    public static void main(String[] args) {
        Request r = new Request.Builder().build();
        Response.Builder unused = null;
    }
}
