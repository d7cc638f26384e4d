package io.quarry.savedquestion;

import io.quarry.appdb.Db;
import io.quarry.card.CardService;
import io.quarry.collection.CollectionAccess;
import io.quarry.permission.DataPermissions;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.DatabaseUsage;
import io.quarry.warehouse.SavedQuestions;
import java.util.Map;

/**
 * The warehouse views of cards: saved questions as query sources per caller ({@link CardSources}), the "Saved
 * Questions" virtual database they fill, and how many cards of each type use a database ({@code usage_info}). The
 * warehouse module shows these views but is built long before cards exist, so they are built here, once the cards are.
 */
public record SavedQuestionModule(CardSources cardSources, SavedQuestions savedQuestions, DatabaseUsage databaseUsage) {
    public static SavedQuestionModule create(Db db, CollectionAccess access, DataPermissions dataPermissions,
            DatabaseService databases, CardService cards) {
        CardSources sources = new CardSources(db, access, dataPermissions, databases);
        DatabaseUsage usage = new DatabaseUsage(Map.of(
                "question", id -> cards.countOnDatabase(id, "question"),
                "dataset", id -> cards.countOnDatabase(id, "model"),
                "metric", id -> cards.countOnDatabase(id, "metric")));
        return new SavedQuestionModule(sources, new SavedQuestions(sources), usage);
    }
}
