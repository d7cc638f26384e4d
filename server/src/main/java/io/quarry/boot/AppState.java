package io.quarry.boot;

import jakarta.servlet.ServletContext;

/** Start-up state shared by the listener, the start-up gate and the API: starting, ready or failed. */
public final class AppState implements Quarry.StartupProgress {
    public static final String ATTRIBUTE = AppState.class.getName();

    private volatile double progress;
    private volatile Quarry quarry;
    private volatile Throwable failure;
    /** What is wrong, for people: where, why, the fix; null while all is well. */
    private volatile String problem;
    /** Whether Quarry keeps trying (the app DB may come up) or has given up (a configuration error). */
    private volatile boolean retrying;

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

    public String problem() {
        return problem;
    }

    public boolean retrying() {
        return retrying;
    }

    void ready(Quarry q) {
        progress = 1.0;
        problem = null;
        failure = null;
        retrying = false;
        quarry = q;
    }

    void failed(Throwable t) {
        failed(t, t.toString(), false);
    }

    void failed(Throwable t, String description, boolean willRetry) {
        problem = description;
        retrying = willRetry;
        failure = t;
    }
}
