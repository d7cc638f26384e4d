package io.quarry.dashboard;

/** A row of dashboardcard_series: an extra card drawn on a dashcard's chart. */
public final class SeriesRow {
    public Long dashboardcardId;
    public Long cardId;
    public int position;
}
