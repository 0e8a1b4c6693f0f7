package app;

import util.concurrent.Guard;

public class Main {
    public static void main(String[] args) {
        Guard g = new Guard();
        g.run(() -> System.out.println("inside"));
    }
}
