// A small JSON reader and writer for GdmarshalTestee.cs, standard library only (Mono has no
// System.Text.Json). Licensed MIT OR Apache-2.0; copy and change it freely.
//
// Values read are null, bool, string, JsonNumber, List<object> (arrays) and JsonObject.

using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Gdmarshal.Testee
{
    /// <summary>A JSON number kept as its text, so that no digit is lost (ids, 64-bit ints).</summary>
    public sealed class JsonNumber
    {
        public readonly string Text;

        public JsonNumber(string text)
        {
            Text = text;
        }

        public override string ToString()
        {
            return Text;
        }
    }

    /// <summary>A JSON object that keeps its members in order; a repeated member replaces the first.</summary>
    public sealed class JsonObject
    {
        // Objects here have a handful of members: a list is faster than a hash table.
        private readonly List<string> keys = new List<string>();
        private readonly List<object> values = new List<object>();

        public int Count
        {
            get { return keys.Count; }
        }

        public string KeyAt(int i)
        {
            return keys[i];
        }

        public object ValueAt(int i)
        {
            return values[i];
        }

        public bool Has(string key)
        {
            return keys.IndexOf(key) >= 0;
        }

        /// <summary>The member's value, or null when there is none.</summary>
        public object Get(string key)
        {
            int i = keys.IndexOf(key);
            return i < 0 ? null : values[i];
        }

        public JsonObject Set(string key, object value)
        {
            int i = keys.IndexOf(key);
            if (i >= 0)
            {
                values[i] = value;
            }
            else
            {
                keys.Add(key);
                values.Add(value);
            }
            return this;
        }
    }

    public static class Json
    {
        /// <summary>Reads one JSON text. Recursive: nesting costs stack (run it on a large one).</summary>
        public static object Parse(string text)
        {
            var parser = new JsonParser(text);
            return parser.ParseDocument();
        }

        public static string Write(object value)
        {
            var sb = new StringBuilder();
            Write(sb, value);
            return sb.ToString();
        }

        public static void Write(StringBuilder sb, object value)
        {
            if (value == null)
            {
                sb.Append("null");
            }
            else if (value is bool)
            {
                sb.Append((bool)value ? "true" : "false");
            }
            else if (value is string)
            {
                WriteString(sb, (string)value);
            }
            else if (value is JsonNumber)
            {
                sb.Append(((JsonNumber)value).Text);
            }
            else if (value is int || value is long)
            {
                sb.Append(Convert.ToInt64(value, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture));
            }
            else if (value is List<object>)
            {
                WriteArray(sb, (List<object>)value);
            }
            else if (value is JsonObject)
            {
                WriteObject(sb, (JsonObject)value);
            }
            else
            {
                throw new ArgumentException("no JSON form for " + value.GetType().Name);
            }
        }

        private static void WriteArray(StringBuilder sb, List<object> items)
        {
            sb.Append('[');
            for (int i = 0; i < items.Count; i++)
            {
                if (i > 0) sb.Append(',');
                Write(sb, items[i]);
            }
            sb.Append(']');
        }

        private static void WriteObject(StringBuilder sb, JsonObject obj)
        {
            sb.Append('{');
            for (int i = 0; i < obj.Count; i++)
            {
                if (i > 0) sb.Append(',');
                WriteString(sb, obj.KeyAt(i));
                sb.Append(':');
                Write(sb, obj.ValueAt(i));
            }
            sb.Append('}');
        }

        /// <summary>Writes a JSON string: non-ASCII text as it is, a lone surrogate escaped (as
        /// JavaScript's JSON.stringify does), so that the output is always valid UTF-8.</summary>
        public static void WriteString(StringBuilder sb, string s)
        {
            sb.Append('"');
            for (int i = 0; i < s.Length; i++)
            {
                char c = s[i];
                switch (c)
                {
                    case '"': sb.Append("\\\""); break;
                    case '\\': sb.Append("\\\\"); break;
                    case '\n': sb.Append("\\n"); break;
                    case '\r': sb.Append("\\r"); break;
                    case '\t': sb.Append("\\t"); break;
                    case '\b': sb.Append("\\b"); break;
                    case '\f': sb.Append("\\f"); break;
                    default:
                        if (c < 0x20 || IsLoneSurrogate(s, i))
                        {
                            sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        }
                        else
                        {
                            sb.Append(c);
                            // The low half of a pair goes out with its high half.
                            if (char.IsHighSurrogate(c)) sb.Append(s[++i]);
                        }
                        break;
                }
            }
            sb.Append('"');
        }

        private static bool IsLoneSurrogate(string s, int i)
        {
            char c = s[i];
            if (char.IsHighSurrogate(c)) return i + 1 >= s.Length || !char.IsLowSurrogate(s[i + 1]);
            return char.IsLowSurrogate(c);
        }
    }

    /// <summary>A recursive-descent reader of one JSON text (RFC 8259).</summary>
    internal sealed class JsonParser
    {
        private readonly string text;
        private int pos;

        public JsonParser(string text)
        {
            this.text = text;
        }

        public object ParseDocument()
        {
            object value = ParseValue();
            SkipWhitespace();
            if (pos != text.Length) throw Error("text after the value");
            return value;
        }

        private object ParseValue()
        {
            SkipWhitespace();
            if (pos >= text.Length) throw Error("the text ends where a value is expected");
            char c = text[pos];
            switch (c)
            {
                case '{': return ParseObject();
                case '[': return ParseArray();
                case '"': return ParseString();
                case 't': return ParseLiteral("true", true);
                case 'f': return ParseLiteral("false", false);
                case 'n': return ParseLiteral("null", null);
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber();
                    throw Error("unexpected character '" + c + "'");
            }
        }

        private JsonObject ParseObject()
        {
            var obj = new JsonObject();
            pos++; // '{'
            SkipWhitespace();
            if (TryTake('}')) return obj;
            while (true)
            {
                SkipWhitespace();
                if (pos >= text.Length || text[pos] != '"') throw Error("a member name is expected");
                string key = ParseString();
                SkipWhitespace();
                Expect(':');
                obj.Set(key, ParseValue());
                SkipWhitespace();
                if (TryTake('}')) return obj;
                Expect(',');
            }
        }

        private List<object> ParseArray()
        {
            var items = new List<object>();
            pos++; // '['
            SkipWhitespace();
            if (TryTake(']')) return items;
            while (true)
            {
                items.Add(ParseValue());
                SkipWhitespace();
                if (TryTake(']')) return items;
                Expect(',');
            }
        }

        private string ParseString()
        {
            pos++; // the opening quote
            int start = pos;
            // Most strings have no escape: take them whole.
            while (pos < text.Length && text[pos] != '"' && text[pos] != '\\' && text[pos] >= 0x20) pos++;
            if (pos < text.Length && text[pos] == '"')
            {
                return text.Substring(start, pos++ - start);
            }
            var sb = new StringBuilder(text, start, pos - start, pos - start + 16);
            while (true)
            {
                if (pos >= text.Length) throw Error("the text ends inside a string");
                char c = text[pos++];
                if (c == '"') return sb.ToString();
                if (c < 0x20) throw Error("a control character inside a string");
                if (c == '\\')
                {
                    sb.Append(ParseEscape());
                }
                else
                {
                    sb.Append(c);
                }
            }
        }

        private char ParseEscape()
        {
            if (pos >= text.Length) throw Error("the text ends inside an escape");
            char c = text[pos++];
            switch (c)
            {
                case '"': return '"';
                case '\\': return '\\';
                case '/': return '/';
                case 'b': return '\b';
                case 'f': return '\f';
                case 'n': return '\n';
                case 'r': return '\r';
                case 't': return '\t';
                case 'u':
                    // A surrogate pair is two escapes, each one UTF-16 unit, as in a C# string.
                    if (pos + 4 > text.Length) throw Error("the text ends inside a \\u escape");
                    int unit;
                    if (!int.TryParse(text.Substring(pos, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out unit))
                    {
                        throw Error("a \\u escape needs 4 hex digits");
                    }
                    pos += 4;
                    return (char)unit;
                default:
                    throw Error("unknown escape \\" + c);
            }
        }

        private JsonNumber ParseNumber()
        {
            int start = pos;
            TryTake('-');
            if (!TryTake('0'))
            {
                if (Digits() == 0) throw Error("a digit is expected");
            }
            if (TryTake('.') && Digits() == 0) throw Error("a digit is expected after '.'");
            if (TryTake('e') || TryTake('E'))
            {
                if (!TryTake('+')) TryTake('-');
                if (Digits() == 0) throw Error("a digit is expected in the exponent");
            }
            return new JsonNumber(text.Substring(start, pos - start));
        }

        private int Digits()
        {
            int start = pos;
            while (pos < text.Length && text[pos] >= '0' && text[pos] <= '9') pos++;
            return pos - start;
        }

        private object ParseLiteral(string word, object value)
        {
            if (string.CompareOrdinal(text, pos, word, 0, word.Length) != 0) throw Error("unknown word");
            pos += word.Length;
            return value;
        }

        private void SkipWhitespace()
        {
            while (pos < text.Length)
            {
                char c = text[pos];
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
                pos++;
            }
        }

        private bool TryTake(char c)
        {
            if (pos < text.Length && text[pos] == c)
            {
                pos++;
                return true;
            }
            return false;
        }

        private void Expect(char c)
        {
            if (!TryTake(c)) throw Error("'" + c + "' is expected");
        }

        private FormatException Error(string what)
        {
            return new FormatException("bad JSON at column " + (pos + 1).ToString(CultureInfo.InvariantCulture) + ": " + what);
        }
    }
}
