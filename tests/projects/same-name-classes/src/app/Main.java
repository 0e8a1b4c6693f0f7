package app;

import util.concurrent.Lock;

public class Main {
    public static void main(String[] args) {
        Lock l = new Lock();
        l.lock();
        l.unlock();
    }
}
