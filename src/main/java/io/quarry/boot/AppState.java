package io.quarry.boot;

import jakarta.servlet.ServletContext;

/** Start-up state shared by the listener, the start-up gate and the API: starting, ready or failed. */
public final class AppState implements Quarry.StartupProgress {
    public static final String ATTRIBUTE = AppState.class.getName();

    private volatile double progress;
    private volatile Quarry quarry;
    private volatile Throwable failure;

    public static AppState of(ServletContext context) {
        return (AppState) context.getAttribute(ATTRIBUTE);
    }

    @Override
    public void set(double fraction) {
        progress = fraction;
    }

    public double progress() {
        return progress;
    }

    public Quarry quarry() {
        return quarry;
    }

    public boolean ready() {
        return quarry != null;
    }

    public Throwable failure() {
        return failure;
    }

    void ready(Quarry q) {
        progress = 1.0;
        quarry = q;
    }

    void failed(Throwable t) {
        failure = t;
    }
}
