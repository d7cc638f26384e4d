package io.quarry.outbound;

import java.io.IOException;

/** A URL whose host the {@link HostStrategy} refuses. The message is Metabase's, which clients show as it is. */
public final class RefusedHostException extends IOException {
    public static final String MESSAGE = "URLs referring to hosts that supply internal hosting metadata are prohibited.";

    public RefusedHostException() {
        super(MESSAGE);
    }
}
