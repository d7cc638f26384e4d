package io.quarry.appdb;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.quarry.core.Json;
import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Map;
import org.apache.ibatis.type.BaseTypeHandler;
import org.apache.ibatis.type.JdbcType;

/** Stores a JSON object column (TEXT) as a {@code Map<String, Object>}; used in mapper XML as {@code typeHandler=json}. */
public final class JsonMapTypeHandler extends BaseTypeHandler<Map<String, Object>> {
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };

    @Override
    public void setNonNullParameter(PreparedStatement ps, int i, Map<String, Object> value, JdbcType jdbcType) throws SQLException {
        try {
            ps.setString(i, Json.MAPPER.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new SQLException("Cannot write JSON column", e);
        }
    }

    @Override
    public void setParameter(PreparedStatement ps, int i, Map<String, Object> value, JdbcType jdbcType) throws SQLException {
        if (value == null) {
            ps.setNull(i, Types.VARCHAR);
        } else {
            setNonNullParameter(ps, i, value, jdbcType);
        }
    }

    @Override
    public Map<String, Object> getNullableResult(ResultSet rs, String column) throws SQLException {
        return parse(rs.getString(column));
    }

    @Override
    public Map<String, Object> getNullableResult(ResultSet rs, int index) throws SQLException {
        return parse(rs.getString(index));
    }

    @Override
    public Map<String, Object> getNullableResult(CallableStatement cs, int index) throws SQLException {
        return parse(cs.getString(index));
    }

    private static Map<String, Object> parse(String text) throws SQLException {
        if (text == null || text.isEmpty()) {
            return null;
        }
        try {
            return Json.MAPPER.readValue(text, MAP);
        } catch (JsonProcessingException e) {
            throw new SQLException("Stored JSON column is not valid JSON", e);
        }
    }
}
