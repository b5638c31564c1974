# Ruby's own answer for each require statement, no engine code: reads [[from, kind, specifier], …] as JSON on stdin
# (paths relative to the project root given as ARGV[0]) and prints {"<from>\t<specifier>": "<path>" | null} where
# the path is what Ruby would load, relative to the root, null when it is not a project file (a gem, the standard
# library, nothing). require_relative ("./x" / "../x"): File.expand_path against the file's folder, as Ruby does.
# require / autoload: $LOAD_PATH.resolve_feature_path with the load path a gem's own code runs under: ARGV[1..]
# (the project's lib folders) before Ruby's own, as `ruby -Ilib` or Bundler sets it.
require 'json'
root = File.expand_path(ARGV[0])
ARGV[1..].reverse_each { |d| $LOAD_PATH.unshift(File.join(root, d)) }
out = {}
JSON.parse($stdin.read).each do |from, kind, spec|
  path =
    if spec.start_with?('./', '../')
      base = File.expand_path(spec, File.dirname(File.join(root, from)))
      [base, "#{base}.rb"].find { |p| p.end_with?('.rb') && File.file?(p) }
    else
      begin
        type, found = $LOAD_PATH.resolve_feature_path(spec)
        type == :rb ? found : nil
      rescue LoadError
        nil
      end
    end
  out["#{from}\t#{spec}"] = path && path.start_with?("#{root}/") ? path.delete_prefix("#{root}/") : nil
end
puts JSON.generate(out)
