package io.quarry.notification;

/** A row of {@code pulse_card}: one card of a pulse, in order, with its attachment choices; joined with the card's own fields. */
public final class PulseCard {
    public Long id;
    public Long pulseId;
    public Long cardId;
    public int position;
    public boolean includeCsv;
    public boolean includeXls;
    public boolean formatRows = true;
    public boolean pivotResults;
    public Long dashboardCardId;
    // from report_card, for the views
    public String name;
    public String description;
    public Long collectionId;
    public String display;
    public boolean cardArchived;
}
