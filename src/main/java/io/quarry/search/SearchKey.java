package io.quarry.search;

/** One ranked hit (model, id, tier) of the page query, or one model's hit count of the count query. */
public final class SearchKey {
    public String model;
    public Long id;
    public Integer score;
    public Long hits;
}
